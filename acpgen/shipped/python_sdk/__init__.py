"""The python-sdk profile's fixed code (``acpgen generate --profile python-sdk``)."""
