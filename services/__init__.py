"""The suite's gRPC services: evaluator, dealer, lobby."""
