"""Players' webhooks, and their calls as rows of the outbox."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('notifications', '0004_clocks_to_games'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('game_started', 'Game started'), ('your_turn', 'Your turn'), ('game_over', 'Game over'), ('reminder', 'Time running down'), ('digest', 'Daily digest'), ('reply_played', 'Reply by mail: played'), ('reply_refused', 'Reply by mail: refused'), ('invitation', 'Invitation to a game'), ('webhook_turn', 'Webhook: your turn'), ('webhook_test', 'Webhook: test')], max_length=16),
        ),
        migrations.CreateModel(
            name='Webhook',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('url', models.CharField(max_length=500)),
                ('format', models.CharField(choices=[('json', 'Plain JSON'), ('discord', 'Discord'), ('slack', 'Slack')], default='json', max_length=8)),
                ('enabled', models.BooleanField(default=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='webhooks', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='notification',
            name='webhook',
            field=models.ForeignKey(blank=True, help_text='The webhook a webhook call goes to (no mail then).', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='calls', to='notifications.webhook'),
        ),
        migrations.AddConstraint(
            model_name='webhook',
            constraint=models.UniqueConstraint(fields=('user', 'url'), name='webhook_unique_url'),
        ),
    ]
