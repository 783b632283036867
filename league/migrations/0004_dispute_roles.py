"""Judges work disputes in the admin panel: they may view and change them."""

from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    perms = Permission.objects.filter(
        content_type__app_label="league", codename__in=["view_dispute", "change_dispute"]
    )
    for name in ("Judges", "League admins"):
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(*perms)


class Migration(migrations.Migration):
    dependencies = [("league", "0003_disputes"), ("league", "0002_roles")]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
