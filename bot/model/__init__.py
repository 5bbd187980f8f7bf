"""The bot's typed records: games, challenges, settings, tournaments and button actions, with one codec.

Each stored document is a pydantic value (pydantic dataclasses, so they keep positional construction and
``dataclasses.replace``), read with :func:`bot.model.codec.load`/``from_dict`` and written with ``to_dict``/``to_json``
in the same JSON shape the stores have always held. Nothing here does I/O or imports the services or the stores.
"""
