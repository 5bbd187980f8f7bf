"""Inline keyboards (plain functions returning ``InlineKeyboardMarkup``) and their callback data classes."""
