"""The REST API: thin DRF views over selectors and services."""
