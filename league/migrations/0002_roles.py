"""Roles as data: the groups that league.kernel.permissions checks, with their admin permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

# What judges and league admins may read in the admin panel.
READ = [
    "league",
    "season",
    "team",
    "player",
    "week",
    "match",
    "game",
    "gameseat",
    "deal",
    "auditentry",
    "venue",
]
# What league admins set up; results and disputes change only through the services.
SET_UP = ["league", "season", "team", "player", "week", "match", "venue"]

ROLES = {
    "Judges": {"view": READ, "change": []},
    "League admins": {"view": READ, "change": SET_UP, "add": SET_UP},
    "Captains": {"view": []},
    "Players": {"view": []},
}


def create_roles(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, grants in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        codenames = [f"{verb}_{model}" for verb, models in grants.items() for model in models]
        group.permissions.set(
            Permission.objects.filter(content_type__app_label="league", codename__in=codenames)
        )


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
