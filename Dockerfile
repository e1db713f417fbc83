# Quadrille in a container: docker build -t quadrille . && docker run -p 5000:5000 -v quadrille:/data quadrille
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games games
COPY quadrille quadrille
COPY ai ai
RUN pip install --no-cache-dir -e .
COPY app.py ./
COPY templates templates
COPY static static
ENV QUADRILLE_HOST=0.0.0.0 \
    QUADRILLE_PORT=5000 \
    QUADRILLE_DB=/data/quadrille.db
VOLUME /data
EXPOSE 5000
STOPSIGNAL SIGTERM
CMD ["python", "app.py"]
