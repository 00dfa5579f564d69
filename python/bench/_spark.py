"""The local Spark session the Spark benchmarks run on (shared by spark_audit.py and
spark_fit.py)."""

from __future__ import annotations

import os
import sys


def local_session(cores: int, partitions: int, driver_memory: str):
    """``local[cores]`` with executors running this interpreter, no UI, quiet logs."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", driver_memory)
        .config("spark.sql.shuffle.partitions", str(partitions))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark
