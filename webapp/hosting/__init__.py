"""The server's own running machinery, below every service that uses it: the sliding-window rate limits
(``ratelimit``), the counters of ``/metrics`` (``metrics``), the host log's lines (``hostlog``) and the
cross-process counts and leases over Redis (``cluster``). It imports only the utilities and the store
(docs/architecture.md "The service floor"); the host's tools (host accounts, backups, settings) are
``webapp.hosttools``, on the floor above the services they call.
"""
