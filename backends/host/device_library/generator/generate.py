"""Writes one generated source of the host device library: generate.py FAMILY OUTPUT.cl"""
import importlib
import sys

import common

if __name__ == "__main__":
    family, output = sys.argv[1], sys.argv[2]
    common.write(output, family, importlib.import_module(family).generate())
