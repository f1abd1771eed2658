# One image for every service of the suite; the command picks the service
# (`serve evaluator|dealer|lobby`), and `poker health HOST:PORT` is its health probe.
FROM python:3.11-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 POKER_LOG_FORMAT=json
COPY pyproject.toml README.md ./
COPY poker ./poker
COPY services ./services
COPY clients ./clients
COPY protos ./protos
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /data poker \
    && mkdir -p /data && chown poker /data
USER poker

# Services listen on 0.0.0.0 inside the container; compose publishes what is needed.
EXPOSE 50051 50052 50053
ENTRYPOINT ["poker"]
CMD ["serve", "evaluator", "--host", "0.0.0.0", "--port", "50051"]
