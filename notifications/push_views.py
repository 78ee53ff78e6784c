"""Thin views of push notifications (notifications.push): a device subscribed from
the settings page (JSON, as its script posts the browser's subscription), renamed
or removed, the kinds switched (forms of the settings page), and a game's page
saying it is open and in view on a device (JSON, from the page's script)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import page_user
from notifications import push
from web.bodies import form_post, json_parse
from web.errors import Invalid, NotFound, ServiceError

SETTINGS_PUSH = "notifications:settings"


def _refused(error: ServiceError) -> JsonResponse:
    return JsonResponse({"code": error.code, "message": error.message}, status=error.status)


def _back() -> HttpResponse:
    return redirect(reverse(SETTINGS_PUSH) + "#push")


def _json(request: HttpRequest) -> dict[str, Any]:
    data = json_parse(request.body, limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    if not isinstance(data, dict):
        raise Invalid("the body is a JSON object")
    return data


@login_required
@require_POST
def device_add(request: HttpRequest) -> JsonResponse:
    """``{"subscription": PushSubscription.toJSON(), "name": ...}``: the device is
    kept (201, its id and name), or the JSON problem."""
    try:
        data = _json(request)
        device = push.device_add(user=page_user(request), subscription=data.get("subscription"),
                                 name=str(data.get("name") or ""))
    except ServiceError as error:
        return _refused(error)
    return JsonResponse({"id": device.pk, "name": device.name}, status=201)


@login_required
@require_POST
@form_post("action", "name")
def device_change(request: HttpRequest, device_id: int) -> HttpResponse:
    """Rename (``action=rename``, ``name``) or remove (``action=remove``) a device of
    the player's; anyone else's is a 404."""
    action = request.POST.get("action", "")
    try:
        if action == "rename":
            device = push.device_rename(user=page_user(request), device_id=device_id,
                                        name=request.POST.get("name", ""))
            messages.success(request, f"The device is now called {device.name}.")
        elif action == "remove":
            push.device_remove(user=page_user(request), device_id=device_id)
            messages.success(request, "The device is removed: it gets no more pushes.")
        else:
            messages.error(request, "Nothing was changed: rename or remove the device.")
    except NotFound as error:
        raise Http404(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message[:1].upper() + error.message[1:] + ".")
    return _back()


@login_required
@require_POST
@form_post("kinds")
def kinds(request: HttpRequest) -> HttpResponse:
    """The kinds of push switched on: those checked (``kinds``), every other off."""
    push.kinds_set(user=page_user(request), on=request.POST.getlist("kinds"))
    messages.success(request, "Your push settings are saved.")
    return _back()


@login_required
@require_POST
def page_open(request: HttpRequest) -> HttpResponse:
    """``{"device": id, "game": id, "open": true|false}`` from a game's page: it is
    open and in view on that device of the player's (or no longer). 204 whether or
    not anything was kept (a device removed meanwhile, another player's game)."""
    try:
        data = _json(request)
    except ServiceError as error:
        return _refused(error)
    push.page_open(user=page_user(request), device_id=data.get("device"), game_id=data.get("game"),
                   open=data.get("open") is not False)
    return HttpResponse(status=204)
