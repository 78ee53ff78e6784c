# The marram service image: web (granian: marram_site/server.py), worker and beat
# (celery) all run it.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=marram_site.settings_production

WORKDIR /app
COPY . .

# Editable, so the code has one home, /app, that settings' BASE_DIR points at.
# collectstatic needs production settings to import, hence the throwaway values.
RUN pip install -e . \
    && DJANGO_SECRET_KEY=collectstatic-only-not-a-real-key-0123456789abcdefghijklmnop \
       DJANGO_ALLOWED_HOSTS=localhost \
       DATABASE_URL=sqlite:////tmp/collectstatic.sqlite3 \
       python manage.py collectstatic --no-input \
    && useradd --system --no-create-home --shell /usr/sbin/nologin marram

USER marram
EXPOSE 8000
CMD ["python", "-m", "marram_site.server"]
