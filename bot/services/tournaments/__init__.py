"""Group tournaments in the chats: the bot's side of the pure tournament logic (the top-level :mod:`tournaments`).

One module a job: :mod:`~bot.services.tournaments.service` assembles the parts for the composition root;
:mod:`~bot.services.tournaments.records` reads and changes the records; :mod:`~bot.services.tournaments.registration`
runs the people's commands; :mod:`~bot.services.tournaments.reconcile` is the state machine and
:mod:`~bot.services.tournaments.sim` plays computer-against-computer matches; :mod:`~bot.services.tournaments.messages`
says everything in the chats, with the texts and pictures of :mod:`~bot.services.tournaments.chat_views` (or, where a
chat takes no pictures, the texts of :mod:`~bot.services.tournaments.text_views`);
:mod:`~bot.services.tournaments.view_model` is the tournament as typed data (the Mini App's view, which the text
standings read too); :mod:`~bot.services.tournaments.rules` holds pure helpers. Each module is imported by its own
name; the package itself imports nothing.
"""
