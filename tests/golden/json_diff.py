"""What differs between two JSON documents, for the scripts that check rewritten recorded outputs."""


def differences(a, b, path=''):
    """Each place where `a` and `b` differ, as (path, value in a, value in b): objects with the
    same keys and lists of the same length are compared item by item, anything else whole (a
    number of another type differs)."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [d for k in a for d in differences(a[k], b[k], f'{path}.{k}')]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f'{path}[{i}]')]
    return [] if a == b and type(a) is type(b) else [(path, a, b)]
