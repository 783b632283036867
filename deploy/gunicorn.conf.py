"""gunicorn's settings for the web service (``gunicorn --config deploy/gunicorn.conf.py``).

Each value can be changed from the environment (.env) without rebuilding the image.
"""

import gc
import multiprocessing
import os


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


# Loopback by default (a plain host: only nginx on the same host reaches gunicorn, so Django
# can trust X-Forwarded-Proto); the image sets 0.0.0.0:8000 for nginx on the compose network.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

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

# Recycling a worker throws away its warm state (connections, caches, compiled templates), and
# under a venue night's spectator load 1,000 requests came round every 1.5 s, with all workers
# restarting together on captains' deals (venue-night load). So recycle rarely, far apart: a worker
# serves 20,000 to 22,000 requests (0 turns recycling off).
max_requests = _int("GUNICORN_MAX_REQUESTS", 20000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 2000)

# The application (and the scorer's tables) is loaded once in the master before forking, so a
# new worker starts ready rather than importing Django on a captain's request. Django opens
# database connections lazily, per worker, so nothing is shared across the fork.
preload_app = os.environ.get("GUNICORN_PRELOAD", "1") != "0"


def pre_fork(server: object, worker: object) -> None:
    """Move everything the master has loaded (Django, the views, the scorer's tables) out of
    the collector's reach before each fork.

    A worker's full garbage collection otherwise walks all of it again: on a venue night each
    worker paused 150 to 250 ms once in its first hundred requests (a captain's deal waiting
    behind it), for objects that live as long as the worker does. Frozen, they are never
    walked, and the collector no longer writes to the memory they sit on, which the workers
    share with the master. The collection first frees what loading left behind, so that it is
    not kept for ever.
    """
    gc.collect()
    gc.freeze()


# The heartbeat file lives in memory: a slow container disk must not look like a dead worker.
worker_tmp_dir = "/dev/shm"

# Logs to the container's output (docker compose logs web).
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
