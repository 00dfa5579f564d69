#!/bin/sh
# Regenerates the golden reports (run from an empty directory): F=path/to/fairkit sh gen.sh
set -e
$F demo-data --rows 1000 --seed 7 --out demo.csv --quiet
awk -F, 'BEGIN{OFS=","} NR==1{print $0,"y_hat2"; next} {print $0, ($3>0.45)?1:0}' demo.csv > demo2.csv
$F audit demo2.csv --label y --pred y_hat --sensitive race,sex --resamples 200 --out pred --format json -q
$F audit demo2.csv --label y --score p --sensitive race,sex --threshold 0.3,0.5 --interval 0.2,0.8 --resamples 200 --out score --format json -q
$F audit demo2.csv --label y --pred y_hat --sensitive race,sex --weight w --resamples 200 --out weighted --format json -q
$F audit demo2.csv --label y --pred y_hat --sensitive sex --by day --window month --resamples 200 --out by_month --format json -q
$F audit demo2.csv --label y --pred y_hat --sensitive race --against y_hat2 --resamples 200 --fail-if "change(dp_difference) > 0.5 or dp_difference > 0.9" --out against --format json -q
$F audit demo2.csv --label y --score p --sensitive race,sex --threshold 0.5 --resamples 200 --multiple-testing bh --out adjusted --format json -q
$F audit demo2.csv --label y --pred y_hat --sensitive race,sex --resamples 200 --ci-method clopper-pearson --min-group-size 0 --fail-if "demographic_parity_difference > 0.01" --out gate --format json -q || test $? = 1
$F audit demo2.csv --label y --pred y_hat --sensitive race,sex --weight w --disparity-reference min --disparity-reference "race=black" --tau 0.9 --resamples 100 --fail-if "fpr_disparity < 0.5 or parity_failures > 1000" --out disparity --format json -q || test $? = 1
printf 'y,y_hat,g\n1,1,a\n1,0,a\n0,0,a\n0,1,a\n1,1,b\n1,1,b\n0,0,c\n0,0,c\n0,0,c\n' > tiny.csv
$F audit tiny.csv --label y --pred y_hat --sensitive g --resamples 100 --min-group-size 3 --out tiny --format json -q
$F audit tiny.csv --label y --pred y_hat --sensitive g --resamples 100 --min-group-size 0 --out tiny_all --format json -q
printf 'y,y_hat,g\n1,0,a\n0,0,a\n1,0,b\n0,0,b\n' > zero.csv
$F audit zero.csv --label y --pred y_hat --sensitive g --resamples 100 --min-group-size 0 --out zero --format json -q
$F compare pred gate --resamples 200 --fail-if "change(dp_difference) > 0.5" --out compare_gate --quiet
$F compare score score --resamples 200 --out compare_scores --quiet
