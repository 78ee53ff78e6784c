"""The reviews app's task as its services enqueue it: a Celery signature by the
name reviews.tasks registers it under. The task calls the services and the
services enqueue this, so neither module imports the other
(tests/service/test_app_boundaries.py checks that the name is a task)."""

from __future__ import annotations

from celery import Signature, signature

REVIEW_MAKE = "reviews.tasks.review_make"

review_make: Signature = signature(REVIEW_MAKE)
"""Make a game's pending review."""
