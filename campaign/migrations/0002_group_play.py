"""Group play: state kept as data, stored force totals and indexes, rules fidelity,
battle consent and bounded inputs, in one schema change (its data comes in the next
migration: on PostgreSQL, rows written in a schema change's transaction leave pending
trigger events that its deferred CREATE INDEX refuses)."""

import functools

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import campaign.rules.enums


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='customcontent',
            name='retired_at',
            field=models.DateTimeField(blank=True, help_text='Retired content is no longer offered to players.', null=True),
        ),
        migrations.AddField(
            model_name='promotion',
            name='settled_by',
            field=models.CharField(blank=True, choices=functools.partial(campaign.rules.enums.choices, *(campaign.rules.enums.PromotionReward,), **{}), max_length=20),
        ),
        migrations.AlterField(
            model_name='promotion',
            name='settled_with',
            field=models.CharField(blank=True, help_text='The honour or Enhancement it was settled with.', max_length=120),
        ),
        migrations.AlterConstraint(
            model_name='customcontent',
            name='custom_relic_has_category',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'crusade_relic'), _negated=True), models.Q(('relic_category', ''), _negated=True), _connector='OR'), name='custom_relic_has_category', violation_error_message='A Crusade Relic needs its category (Artificer, Antiquity or Legendary).'),
        ),
        migrations.AddField(
            model_name='crusadeforce',
            name='crusade_points',
            field=models.IntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='crusadeforce',
            name='supply_used',
            field=models.PositiveIntegerField(default=0, editable=False, help_text='Points of the active units that count.'),
        ),
        migrations.AddField(
            model_name='crusadeforce',
            name='unit_count',
            field=models.PositiveIntegerField(default=0, editable=False, verbose_name='units'),
        ),
        migrations.AddIndex(
            model_name='crusadeforce',
            index=models.Index(models.F('campaign'), models.OrderBy(models.F('victories'), descending=True), models.OrderBy(models.F('crusade_points'), descending=True), models.F('name'), name='force_standings'),
        ),
        migrations.AddIndex(
            model_name='historyentry',
            index=models.Index(fields=['-created_at', '-id'], name='history_newest_first'),
        ),
        migrations.AddIndex(
            model_name='historyentry',
            index=models.Index(fields=['campaign', '-created_at', '-id'], name='history_campaign_newest'),
        ),
        migrations.AddField(
            model_name='battleunit',
            name='second_leader_rule',
            field=models.CharField(blank=True, help_text='For a Bodyguard with two Leaders: the datasheet rule that allows it.', max_length=255),
        ),
        migrations.AddField(
            model_name='unit',
            name='enhancement_weapon',
            field=models.CharField(blank=True, help_text="If the Enhancement is a weapon, or replaces one: that weapon's name.", max_length=120),
        ),
        migrations.AddField(
            model_name='unit',
            name='is_infantry',
            field=models.BooleanField(default=False, verbose_name='INFANTRY'),
        ),
        migrations.AddField(
            model_name='unit',
            name='is_monster',
            field=models.BooleanField(default=False, verbose_name='MONSTER'),
        ),
        migrations.AddField(
            model_name='unit',
            name='is_mounted',
            field=models.BooleanField(default=False, verbose_name='MOUNTED'),
        ),
        migrations.AddField(
            model_name='unit',
            name='is_vehicle',
            field=models.BooleanField(default=False, verbose_name='VEHICLE'),
        ),
        migrations.AddField(
            model_name='battle',
            name='cancelled_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='battleparticipant',
            name='claimed_result',
            field=models.CharField(blank=True, choices=functools.partial(campaign.rules.enums.choices, *(campaign.rules.enums.BattleResult,), **{}), help_text="The result this side's player recorded.", max_length=8),
        ),
        migrations.AddField(
            model_name='battleparticipant',
            name='invitation',
            field=models.CharField(choices=[('invited', 'Invited'), ('accepted', 'Accepted'), ('declined', 'Declined'), ('withdrawn', 'Invitation withdrawn')], default='invited', help_text="The side fights only once its player accepts (the starter's side is accepted when the battle starts).", max_length=16),
        ),
        migrations.AddField(
            model_name='battleparticipant',
            name='recorded_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='battleparticipant',
            name='recorded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='battle',
            name='status',
            field=models.CharField(choices=[('in_progress', 'In progress'), ('disputed', 'Disputed'), ('completed', 'Completed'), ('voided', 'Voided'), ('cancelled', 'Cancelled')], default='in_progress', max_length=16),
        ),
        migrations.AlterField(
            model_name='battleparticipant',
            name='result',
            field=models.CharField(blank=True, choices=functools.partial(campaign.rules.enums.choices, *(campaign.rules.enums.BattleResult,), **{}), help_text='The result that counted, once the battle completed.', max_length=8),
        ),
        migrations.AddConstraint(
            model_name='battleparticipant',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('claimed_result', ''), ('recorded_at__isnull', True)), models.Q(('recorded_at__isnull', False), models.Q(('claimed_result', ''), _negated=True)), _connector='OR'), name='recorded_side_claims_a_result'),
        ),
        migrations.AddConstraint(
            model_name='battleparticipant',
            constraint=models.CheckConstraint(condition=models.Q(('recorded_at__isnull', True), ('invitation', 'accepted'), _connector='OR'), name='only_an_accepted_side_records'),
        ),
        migrations.AlterField(
            model_name='battlehonour',
            name='effect',
            field=models.TextField(blank=True, max_length=1000),
        ),
        migrations.AlterField(
            model_name='battlescar',
            name='effect',
            field=models.TextField(blank=True, max_length=1000),
        ),
        migrations.AlterField(
            model_name='campaign',
            name='description',
            field=models.TextField(blank=True, max_length=4000),
        ),
        migrations.AlterField(
            model_name='campaign',
            name='rp_cap',
            field=models.PositiveIntegerField(default=10, help_text='Most RP a force can hold (rulebook: 10).', validators=[django.core.validators.MaxValueValidator(100)]),
        ),
        migrations.AlterField(
            model_name='campaign',
            name='starting_rp',
            field=models.PositiveIntegerField(default=5, help_text='Requisition points of a new force (rulebook: 5).', validators=[django.core.validators.MaxValueValidator(100)]),
        ),
        migrations.AlterField(
            model_name='campaign',
            name='starting_supply_limit',
            field=models.PositiveIntegerField(default=1000, help_text='Supply Limit of a new force (rulebook: 1000).', validators=[django.core.validators.MaxValueValidator(1000000)]),
        ),
        migrations.AlterField(
            model_name='campaign',
            name='supply_limit_increase',
            field=models.PositiveIntegerField(default=200, help_text='Supply Limit gained per purchase (rulebook: 200).', validators=[django.core.validators.MaxValueValidator(1000000)]),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='background',
            field=models.TextField(blank=True, max_length=4000),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='battle_tally',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)]),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='goals',
            field=models.TextField(blank=True, max_length=4000),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='rp',
            field=models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(100)], verbose_name='RP'),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='supply_limit',
            field=models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(1000000)]),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='vendettas',
            field=models.TextField(blank=True, max_length=4000),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='victories',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)]),
        ),
        migrations.AlterField(
            model_name='crusadeforce',
            name='victories_notes',
            field=models.TextField(blank=True, max_length=4000, verbose_name='notable victories'),
        ),
        migrations.AlterField(
            model_name='customcontent',
            name='effect',
            field=models.TextField(blank=True, max_length=1000),
        ),
        migrations.AlterField(
            model_name='unit',
            name='battles_played',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='battles_survived',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='crusade_rules',
            field=models.TextField(blank=True, max_length=4000, verbose_name='rules chosen'),
        ),
        migrations.AlterField(
            model_name='unit',
            name='enhancement_points',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(10000)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='max_model_count',
            field=models.PositiveIntegerField(blank=True, help_text="The datasheet's maximum number of models.", null=True, validators=[django.core.validators.MaxValueValidator(200)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='model_count',
            field=models.PositiveIntegerField(default=1, validators=[django.core.validators.MaxValueValidator(200)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='notes',
            field=models.TextField(blank=True, max_length=4000),
        ),
        migrations.AlterField(
            model_name='unit',
            name='points',
            field=models.PositiveIntegerField(validators=[django.core.validators.MaxValueValidator(10000)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='units_destroyed',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)]),
        ),
        migrations.AlterField(
            model_name='unit',
            name='wargear',
            field=models.TextField(blank=True, max_length=1000),
        ),
        migrations.AlterField(
            model_name='unit',
            name='xp',
            field=models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100000)], verbose_name='XP'),
        ),
    ]
