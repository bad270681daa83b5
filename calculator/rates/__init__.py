"""The Town Clerk's rate-schedule year: the rate VC, the hearing window, the adoption vote,
the notices, and the year's steps (propose, notice, adopt, notify users)."""
