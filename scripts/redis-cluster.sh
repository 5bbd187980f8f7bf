#!/usr/bin/env bash
# Starts (or reuses) a local 3-node Redis Cluster for the storage contract tests and prints its URL
# (redis+cluster://127.0.0.1:<first port>) as the last line of its output.
#
# Ports: REDIS_CLUSTER_PORT (default 7101) and the next two. Files (nodes.conf, logs) live in
# REDIS_CLUSTER_DIR (default /tmp/nardy-redis-cluster). No persistence (--save "" --appendonly no): it is
# test data only. Idempotent: when the three ports already answer and the cluster reports cluster_state:ok,
# nothing is started. A node that answers but belongs to a broken cluster is reset and the cluster recreated.
set -euo pipefail

FIRST_PORT=${REDIS_CLUSTER_PORT:-7101}
DIR=${REDIS_CLUSTER_DIR:-/tmp/nardy-redis-cluster}
PORTS=("$FIRST_PORT" "$((FIRST_PORT + 1))" "$((FIRST_PORT + 2))")
URL="redis+cluster://127.0.0.1:${FIRST_PORT}"

for tool in redis-server redis-cli; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is not installed (apt-get install redis-server)" >&2
    exit 1
  fi
done

cluster_ok() {
  local port
  for port in "${PORTS[@]}"; do
    redis-cli -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
  # every node must know the other two (a node of some other cluster on one of the ports does not count)
  [ "$(redis-cli -p "${PORTS[0]}" cluster nodes 2>/dev/null | grep -c 'master')" -ge 3 ]
}

if cluster_ok; then
  echo "Redis Cluster answers on ports ${PORTS[*]}"
  echo "$URL"
  exit 0
fi

mkdir -p "$DIR"
for port in "${PORTS[@]}"; do
  if redis-cli -p "$port" ping >/dev/null 2>&1; then
    # a node of ours from an earlier, unfinished run: empty it and forget its cluster
    redis-cli -p "$port" flushall >/dev/null 2>&1 || true
    redis-cli -p "$port" cluster reset hard >/dev/null
  else
    mkdir -p "$DIR/$port"
    rm -f "$DIR/$port/nodes.conf"
    redis-server --port "$port" --bind 127.0.0.1 --daemonize yes \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 5000 \
      --save "" --appendonly no --dir "$DIR/$port" --logfile "$DIR/$port/redis.log" \
      --pidfile "$DIR/$port/redis.pid"
  fi
done

for port in "${PORTS[@]}"; do
  for _ in $(seq 1 100); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  redis-cli -p "$port" ping >/dev/null 2>&1 || { echo "redis-server on port $port did not start" >&2; exit 1; }
done

redis-cli --cluster create "${PORTS[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 || {
  cat "$DIR/create.log" >&2
  exit 1
}

for _ in $(seq 1 100); do
  if cluster_ok; then
    echo "Redis Cluster is up on ports ${PORTS[*]}"
    echo "$URL"
    exit 0
  fi
  sleep 0.2
done
echo "Redis Cluster did not reach cluster_state:ok (see $DIR/*/redis.log)" >&2
exit 1
