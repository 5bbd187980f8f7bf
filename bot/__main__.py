"""``python -m bot``: run the Telegram bot with settings from the environment and ``.env``."""

from bot.app import main

if __name__ == "__main__":
    main()
