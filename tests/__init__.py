"""The suite's tests."""
