"""A deal correction's reason the system writes, stored as a code and parameters
(league.kernel.stored_texts): "Took the numbers ann entered for deal 3." (a captain taking the
other team's numbers) and "Ruling on dispute #4 (S-4): ..." (a judge's ruling). Existing rows
are read: a reason in one of the known forms (English, or the French a phone or a judge wrote
it in) gets its code and parameters, on the deal and on the correction's audit entry; any other
text (a reason a person typed) stays as it is."""

from django.db import migrations, models

from league.kernel.stored_texts import parse_reason

CORRECTIONS = ("deal_correct", "deals_correct")


def forwards(apps, schema_editor):
    Deal = apps.get_model("league", "Deal")
    AuditEntry = apps.get_model("league", "AuditEntry")
    for deal in Deal.objects.filter(reason_code="").exclude(reason="").iterator():
        found = parse_reason(deal.reason)
        if found is not None:
            deal.reason_code, deal.reason_params = found
            deal.save(update_fields=["reason_code", "reason_params"])
    for entry in AuditEntry.objects.filter(action__in=CORRECTIONS).exclude(reason="").iterator():
        after = entry.after if isinstance(entry.after, dict) else {}
        if after.get("reason_code"):
            continue
        found = parse_reason(entry.reason)
        if found is not None:
            code, params = found
            entry.after = {**after, "reason_code": code, "reason_params": params}
            entry.save(update_fields=["after"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0020_subs"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="reason_code",
            field=models.CharField(blank=True, default="", editable=False, max_length=32),
        ),
        migrations.AddField(
            model_name="deal",
            name="reason_params",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
