"""The Mini App's server: trust (signed init data), the JSON API, the live socket and the static files.

It sits beside the handlers (it calls services, never the storage) and is mounted under ``/webapp/`` by the
webhook worker (:mod:`bot.webhook`) or, in polling mode, by its own small server (:mod:`bot.app`), only when
``WEBAPP_URL`` is set.
"""
