"""Password hashing with scrypt (werkzeug.security): a well-kept, memory-hard KDF already in Flask's deps."""

from werkzeug.security import check_password_hash, generate_password_hash

MIN_LENGTH = 8
MAX_LENGTH = 200


def hash_password(password):
    """The scrypt hash to store for a password."""
    return generate_password_hash(password, method="scrypt")


def check_password(stored_hash, password):
    """Whether the password matches the stored hash (constant-time comparison)."""
    return check_password_hash(stored_hash, password)
