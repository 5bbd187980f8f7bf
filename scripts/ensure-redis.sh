#!/usr/bin/env bash
# Makes sure a Redis server answers on 127.0.0.1:6379; starts one (installing it when missing) if none does.
set -euo pipefail

redis_answers() {
  python3 - <<'PY'
import socket, sys
try:
    with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
        s.sendall(b"PING\r\n")
        sys.exit(0 if s.recv(16).startswith(b"+PONG") else 1)
except OSError:
    sys.exit(1)
PY
}

if redis_answers; then
  echo "Redis answers on 127.0.0.1:6379"
  exit 0
fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "No Redis server found; installing one"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
fi
echo "Starting Redis on 127.0.0.1:6379"
mkdir -p /tmp/nardy-redis
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
  --dir /tmp/nardy-redis --logfile /tmp/nardy-redis/redis.log
for _ in $(seq 1 50); do
  if redis_answers; then echo "Redis is up"; exit 0; fi
  sleep 0.2
done
echo "Redis did not start" >&2
exit 1
