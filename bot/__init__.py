"""The Telegram application of the nardy bot (floor 3): aiogram 3 handlers, storage, sender and i18n."""
