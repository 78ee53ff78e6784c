"""The accounts' API: sign-up (an account and its token) and a token for an
existing account, both throttled per address (accounts.api_urls)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from web.serializers import ERROR, Shape, StrictSerializer, request_body, valid


class SignupSerializer(StrictSerializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True, max_length=128)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("this username is taken")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"], email=attrs["email"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as e:
            raise serializers.ValidationError({"password": list(e.messages)}) from None
        return attrs


class SignedUpSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class Signup(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(request=SignupSerializer, responses={201: SignedUpSerializer, 400: ERROR})
    def post(self, request: Request) -> Response:
        data = valid(SignupSerializer, request_body(request))
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                data["username"], email=data["email"], password=data["password"]
            )
            token = Token.objects.create(user=user)
        return Response(
            {"id": user.pk, "username": user.get_username(), "token": token.key},
            status=status.HTTP_201_CREATED,
        )


class CredentialsSerializer(StrictSerializer, AuthTokenSerializer):
    # DRF's check of a username and password, refusing fields it does not know.
    # None takes the inherited field away (DRF's way), which the stubs do not know
    token = None  # type: ignore[assignment]  # an answer's field, not the request's


# DRF's token endpoint, reading JSON within bounds as every endpoint does (DRF's
# own view reads forms too, and JSON with no limit on its depth).
class TokenObtain(ObtainAuthToken):
    parser_classes = APIView.parser_classes  # the settings' defaults
    renderer_classes = APIView.renderer_classes
    serializer_class = CredentialsSerializer

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: inline_serializer("TokenAnswer", {"token": serializers.CharField()}),
                   400: ERROR},
        description="Your token, the same at every call, for the header "
        "`Authorization: Token <token>`.",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
