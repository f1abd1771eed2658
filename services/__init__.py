"""The suite's gRPC services: evaluator, dealer, lobby."""

import poker  # noqa: F401 - first: it picks gRPC's I/O engine (poker/grpc_engine.py)
