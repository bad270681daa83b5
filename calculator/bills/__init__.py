"""Quarterly sewer bills, for residents and the billing office: a bill and its explanation,
the penalty, arrears and payments, the amounts a person types, and the whole quarter's bill run."""
