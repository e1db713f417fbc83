"""The servers of a one-machine cluster, as scripts/cluster.py, the tests and bench/ start them:

    users.py     which system user each server runs as; private directories, secret files, passwords
"""
