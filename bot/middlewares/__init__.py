"""Dispatcher middlewares: error reporting and the choice of language (the store, like every other collaborator, is
Dispatcher data set by :mod:`bot.wiring`)."""

from .errors import ErrorReportingMiddleware
from .i18n import UserLanguageMiddleware

__all__ = ["ErrorReportingMiddleware", "UserLanguageMiddleware"]
