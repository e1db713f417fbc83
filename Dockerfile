# Quadrille in a container: docker build -t quadrille . && docker run -p 5000:5000 -v quadrille:/data quadrille
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY games games
COPY quadrille quadrille
COPY ai ai
RUN pip install --no-cache-dir -c constraints.txt -e .
COPY app.py ./
COPY templates templates
COPY static static
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
CMD ["python", "app.py"]
