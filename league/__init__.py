"""The league app: models, services, selectors, API, web views, admin and tasks."""
