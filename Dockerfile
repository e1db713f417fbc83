# Quadrille in a container: docker build -t quadrille . && docker run -p 5000:5000 -v quadrille:/data quadrille
# One process on SQLite by default; deploy/docker-compose.yml runs the same image as a cluster's app processes
# (PostgreSQL and Redis: the image carries quadrille[cluster]; --build-arg EXTRAS=cluster,eventlet adds eventlet).
# docs/hosting.md, "Docker".
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
ARG EXTRAS=cluster
COPY pyproject.toml constraints.txt README.md ./
COPY games games
COPY quadrille quadrille
COPY ai ai
# A plain (not editable) install of the packages and their dependencies, at the versions tested; the build's
# leftovers go. app.py runs from /app, beside templates/ and static/ (Python finds the same packages' source
# there first: they are what was installed).
RUN pip install --no-cache-dir -c constraints.txt ".[${EXTRAS}]" && rm -rf build ./*.egg-info
COPY app.py ./
COPY templates templates
COPY static static
# The translations' .mo files and the browser's catalogs (static/i18n/), built from the .po files
# (docs/translating.md); then the static files, those among them, compressed.
RUN python -m quadrille.i18n compile
# Compress the static files once, here, rather than at every start (quadrille/web/assets.py).
RUN python -c "from quadrille.web.assets import main; main()" >/dev/null
# The server runs as a user of its own, which owns nothing but the database volume.
RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin quadrille \
    && mkdir -p /data && chown quadrille:quadrille /data
USER quadrille
ENV QUADRILLE_HOST=0.0.0.0 \
    QUADRILLE_PORT=5000 \
    QUADRILLE_DB=/data/quadrille.db
VOLUME /data
EXPOSE 5000
STOPSIGNAL SIGTERM
# The image has no curl: Python's urllib asks /api/health (an answer other than 200, or none in 4 s, fails).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('QUADRILLE_PORT', '5000'); sys.exit(0 if urllib.request.urlopen(f'http://127.0.0.1:{port}/api/health', timeout=4).status == 200 else 1)"]
CMD ["python", "app.py"]
