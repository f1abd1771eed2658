"""The suite's tests."""

import poker  # noqa: F401 - first: the tests run on the services' gRPC engine (poker/grpc_engine.py)
