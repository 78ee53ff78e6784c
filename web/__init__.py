"""What every app's HTTP side shares, importing no app of the project but live:
the errors services raise (web.errors), reading what clients send within
bounds (web.bodies), how the API reads bodies, negotiates and answers errors
(web.http, which REST_FRAMEWORK's settings name), the client's network address
(web.addresses), the site's own address for links that leave it (web.links)
and the ``<id:...>`` path converter (web.converters). Its pages of refusal
extend the site's base page (games/base.html)."""
