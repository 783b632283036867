# Pegboard's image for production: web (gunicorn), migrate, worker and beat all run it
# (docker-compose.yml). Settings come from the environment (.env); static files are collected
# into the shared volume at STATIC_ROOT by the migrate step, and nginx serves them from there.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    PEGBOARD_PRODUCTION=1 \
    STATIC_ROOT=/app/staticfiles \
    GUNICORN_BIND=0.0.0.0:8000

WORKDIR /app

RUN groupadd --system --gid 10001 pegboard \
    && useradd --system --uid 10001 --gid pegboard --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin pegboard

# The dependencies of pyproject.toml first, in a layer of their own: a code change does not
# reinstall them.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Only what the application needs: never .env, .secret_key, .venv or a database file.
COPY manage.py ./
COPY config ./config
COPY scoring ./scoring
COPY contest ./contest
COPY league ./league
COPY tournaments ./tournaments
COPY federation ./federation
COPY templates ./templates
COPY static ./static
COPY deploy/gunicorn.conf.py ./deploy/gunicorn.conf.py

# The project itself, editable so that templates/ and static/ stay beside the code (BASE_DIR).
# staticfiles/ (the shared volume) and var/ (celery beat's schedule) belong to the app user, so
# the named volumes mounted there start out writable by it.
RUN pip install --no-deps --editable . \
    && mkdir -p /app/staticfiles /app/var \
    && chown pegboard:pegboard /app/staticfiles /app/var

USER pegboard:pegboard

EXPOSE 8000
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "config.wsgi"]
