"""The web pages: lobby, my games, the game page and the replay viewer.

``views`` holds thin Django views; ``reads`` and ``replay`` the page-specific
reads they need (built on ``games.selectors``, never writing). The pages play
through the same API and services as every other client.
"""
