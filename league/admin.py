"""The admin panel (judges and league admins)."""

from django.contrib import admin

from league import models

for model in (models.League, models.Season, models.Venue, models.Player, models.Team, models.Week,
              models.Match):
    admin.site.register(model)
