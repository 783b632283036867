"""Texts the system writes, stored as a code and parameters (league.kernel.stored_texts): the
dispute a tap raises from two rival entries. Existing rows are read: a claim in the known
English form ("Deal 3 was entered twice: ann entered ..., cat entered ....") gets its code and
parameters, and so does the history line (audit entry) that raised it; any other text (a claim
a person typed) stays as it is."""

from django.db import migrations, models

from league.kernel.stored_texts import RIVAL_ENTRIES, parse_rival_claim


def forwards(apps, schema_editor):
    Dispute = apps.get_model("league", "Dispute")
    AuditEntry = apps.get_model("league", "AuditEntry")
    for dispute in Dispute.objects.filter(claim_code="").iterator():
        params = parse_rival_claim(dispute.claim)
        if params is not None:
            dispute.claim_code, dispute.claim_params = RIVAL_ENTRIES, params
            dispute.save(update_fields=["claim_code", "claim_params"])
    for entry in AuditEntry.objects.filter(action="dispute_raise").iterator():
        after = entry.after or {}
        if after.get("claim_code") or not isinstance(after.get("claim"), str):
            continue
        params = parse_rival_claim(after["claim"])
        if params is not None:
            entry.after = {**after, "claim_code": RIVAL_ENTRIES, "claim_params": params}
            entry.save(update_fields=["after"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0017_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="dispute",
            name="claim_code",
            field=models.CharField(blank=True, default="", editable=False, max_length=32),
        ),
        migrations.AddField(
            model_name="dispute",
            name="claim_params",
            field=models.JSONField(blank=True, default=dict, editable=False),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
