"""What changes an account beyond Django's own forms: its mail address."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from web.errors import Invalid


def user_email_change(*, user: User, email: str) -> str:
    """Send the user's mail to a new address, which replies by mail must then come
    from too; the address as stored. The caller has checked the user's password."""
    address = get_user_model().objects.normalize_email(email.strip())
    try:
        validate_email(address)
    except ValidationError:
        raise Invalid(f"{email!r} is not an email address", field="email") from None
    if address.lower() == user.email.lower():
        raise Invalid("that is already your address", field="email", code="unchanged")
    user.email = address
    user.save(update_fields=["email"])
    return address
