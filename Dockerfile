# The nardy Telegram bot: python -m bot, settings from the environment (see .env.example).
# Build: docker build -t nardy-bot .   Run: docker run -e BOT_TOKEN=... -v nardy-data:/app/data nardy-bot

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
# Dependencies first (cached while only the code changes): install what pyproject.toml declares.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt
# Then the project itself (packages nardy, rendering, tournaments and bot, with fonts and message catalogues).
COPY README.md ./
COPY nardy ./nardy
COPY rendering ./rendering
COPY tournaments ./tournaments
COPY bot ./bot
RUN pip install --no-deps .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PATH=/opt/venv/bin:$PATH \
    EMBEDDED_DB_PATH=/app/data/nardy.sqlite3
RUN groupadd --system nardy && useradd --system --gid nardy --home-dir /app --shell /usr/sbin/nologin nardy \
    && mkdir -p /app/data && chown -R nardy:nardy /app
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
USER nardy
VOLUME ["/app/data"]
# webhook mode (BOT_MODE=webhook): the webhook, /healthz and /metrics
EXPOSE 8080
CMD ["python", "-m", "bot"]
