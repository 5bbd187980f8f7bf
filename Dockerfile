# The nardy Telegram bot: python -m bot, settings from the environment (see .env.example).
# Build: docker build -t nardy-bot .   Run: docker run -e BOT_TOKEN=... -v nardy-data:/app/data nardy-bot
# The install steps are scripts/docker-build-steps.sh; scripts/check-image-install.sh runs the same steps in a
# temporary venv on a machine without Docker.

# ---- build stage: a C compiler, so that mypyc compiles the engine's hot path (3-4x faster move generation) ----
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# Debian packages are not pinned to versions (hadolint DL3008): the bookworm base fixes the release, and pinned
# versions vanish from Debian's mirrors with each security update, which would break the build.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
COPY scripts/docker-build-steps.sh /usr/local/bin/docker-build-steps.sh
# Dependencies first (this layer is cached while only the code changes): what pyproject.toml declares.
COPY pyproject.toml ./
RUN sh /usr/local/bin/docker-build-steps.sh dependencies
# Then the project itself (nardy, rendering with its fonts, tournaments, bot with its catalogues), compiled;
# the step fails the build unless `python -c "import nardy,sys; sys.exit(not nardy.compiled_engine())"` passes.
COPY setup.py README.md LICENSE ./
COPY nardy ./nardy
COPY rendering ./rendering
COPY tournaments ./tournaments
COPY bot ./bot
RUN sh /usr/local/bin/docker-build-steps.sh project

# ---- runtime stage: no compiler; libfribidi0, which Pillow's bundled raqm loads at run time for right-to-left
# names (harfbuzz and raqm come inside Pillow's wheel, the fonts inside the package: no font packages needed) ----
FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PATH=/opt/venv/bin:$PATH \
    EMBEDDED_DB_PATH=/app/data/nardy.sqlite3
# (DL3008 as above.) The user has fixed numeric ids, so that `USER` names it in a way any runtime can check.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 nardy \
    && useradd --system --uid 10001 --gid nardy --home-dir /app --shell /usr/sbin/nologin nardy \
    && mkdir -p /app/data && chown -R nardy:nardy /app
COPY --from=build /opt/venv /opt/venv
COPY --from=build /usr/local/bin/docker-build-steps.sh /usr/local/bin/docker-build-steps.sh
# The image fails to build unless it runs the compiled engine with raqm, fribidi and the fonts.
RUN sh /usr/local/bin/docker-build-steps.sh runtime-check
WORKDIR /app
USER 10001:10001
VOLUME ["/app/data"]
# webhook mode (BOT_MODE=webhook): the webhook, /healthz and /metrics on WEBHOOK_PORT
EXPOSE 8080
# Webhook mode: GET /healthz on WEBHOOK_PORT must answer 200 (the store answers). Polling mode serves no HTTP, so
# the check passes while the process runs (bot/healthcheck.py). The bot waits for the network at start by itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "bot.healthcheck"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
