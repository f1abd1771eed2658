# One image for every service of the suite; the command picks the service.
FROM python:3.11-slim

WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 POKER_LOG_FORMAT=json
COPY pyproject.toml README.md ./
COPY poker ./poker
COPY services ./services
COPY clients ./clients
COPY protos ./protos
RUN pip install --no-cache-dir .

# Services listen on 0.0.0.0 inside the container; compose publishes what is needed.
ENTRYPOINT ["poker"]
CMD ["serve", "evaluator", "--host", "0.0.0.0", "--port", "50051"]
