"""What every app's HTTP side shares, importing no app of the project but live:
the errors services raise (web.errors), reading what clients send within
bounds (web.bodies), how the API reads bodies, negotiates and answers errors
(web.http, which REST_FRAMEWORK's settings name), the client's network address
(web.addresses), the site's own address for links that leave it (web.links)
and the ``<id:...>`` path converter (web.converters). A refused form is shown
in the site's template of refusals, games/refused.html (a name, not an import)."""
