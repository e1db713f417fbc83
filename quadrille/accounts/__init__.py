"""Accounts, optional: sign up, log in and out, change the password, delete the account; API tokens for bots;
each account's seat key, which holds its seats in every match it plays; and the list of its games."""
from .service import Account, AccountService

__all__ = ["Account", "AccountService"]
