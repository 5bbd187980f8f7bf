"""Dispatcher middlewares: error reporting, store injection and the choice of language."""

from .errors import ErrorReportingMiddleware
from .i18n import UserLanguageMiddleware
from .store import StoreMiddleware

__all__ = ["ErrorReportingMiddleware", "StoreMiddleware", "UserLanguageMiddleware"]
