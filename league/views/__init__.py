"""Server-rendered pages: thin views over selectors and services."""
