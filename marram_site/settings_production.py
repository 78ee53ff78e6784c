"""Production settings: the base settings with DJANGO_ENV forced to production.

``DJANGO_SETTINGS_MODULE=marram_site.settings_production`` and
``DJANGO_ENV=production`` with the base module are the same thing; this module
exists so the choice can be made from the settings module name alone.
"""

import os

os.environ["DJANGO_ENV"] = "production"

from marram_site.settings import *  # noqa: E402, F403

# The mail page reads and answers mail inside the site: a development tool only.
MARRAM_MAIL_INBOX_PAGE = False
