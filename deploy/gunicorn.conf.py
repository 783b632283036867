"""gunicorn's settings for the web service (``gunicorn --config deploy/gunicorn.conf.py``).

Each value can be changed from the environment (.env) without rebuilding the image.
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


# nginx proxies to this port on the compose network; it is never published.
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")

# Sync workers: a request is short (a deal, a page of standings). WEB_CONCURRENCY is the usual
# name; the default follows the CPUs, capped so that a big host does not exhaust PostgreSQL's
# connections (each worker keeps one open for DB_CONN_MAX_AGE seconds).
workers = _int("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, 8))
threads = _int("GUNICORN_THREADS", 1)

# A worker silent this long is killed and replaced; nginx waits longer (proxy_read_timeout 60s),
# so a stuck request answers 502 from nginx, not a hung connection.
timeout = _int("GUNICORN_TIMEOUT", 30)
# On restart or scale-down, requests in flight get this long to finish (compose waits
# stop_grace_period, 40s, before it kills the container).
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)

# Recycle workers now and then so a slow leak never grows; the jitter keeps them from
# restarting all at once.
max_requests = _int("GUNICORN_MAX_REQUESTS", 1000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 100)

# The heartbeat file lives in memory: a slow container disk must not look like a dead worker.
worker_tmp_dir = "/dev/shm"

# Logs to the container's output (docker compose logs web).
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
