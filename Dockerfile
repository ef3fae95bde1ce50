# Glory in a container (docs/hosting.md): a slim, non-root image; games live on the /data volume.
#   docker build -t glory .
#   docker run -d --name glory --env-file .env -v glory-data:/data --restart on-failure:5 glory
# compose.yaml runs it beside PostgreSQL. Exit status 2 means a setting to fix (the last log
# lines say which): restarting cannot help, so the restart policy gives up after a few tries.

FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
# The locked versions first (a layer that changes only with requirements.lock), then Glory.
COPY requirements.lock ./
RUN python -m venv /opt/glory && /opt/glory/bin/pip install -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY games ./games
RUN /opt/glory/bin/pip install --no-deps .

FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --no-create-home glory \
    && mkdir /data && chown glory:glory /data
COPY --from=build /opt/glory /opt/glory
# The default SQLite file, ./data/glory.db, is then /data/glory.db on the volume, also when an env
# file sets DATABASE_URL empty (or to the old example's ./data/glory.db).
ENV PATH=/opt/glory/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/glory.db
USER 10001:10001
WORKDIR /
VOLUME ["/data"]
# Healthy while the bot is connected to Discord: it touches its health file every 20 seconds
# (HEALTH_FILE; unset or empty: /tmp/glory-alive, the file this check reads too).
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot.health"]
# docker stop sends SIGTERM: the bot finishes the clicks in progress and exits within seconds.
STOPSIGNAL SIGTERM
ENTRYPOINT ["glory"]
