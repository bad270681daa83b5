"""The Town Clerk's rate-schedule commands (`build.py rates`) and the notices they print,
for the Clerk's office."""
