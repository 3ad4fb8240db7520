#!/bin/bash
# Train the learned detector on a GPU machine lent for minutes, from a bare checkout of this repo:
# build the data set on all its cores, train within a wall-clock budget, export the ONNX file.
#
#   bash scripts/train_detector_gpu.sh LOOKS BUDGET_S JOBS DEVICE
#
# LOOKS installations per table in the training split (models/README.md: 160), BUDGET_S the seconds
# the whole script may take (training gets what the data set leaves, less 100 s for the last
# validation and the export), JOBS worker processes for the data set, DEVICE a CUDA index.
# Environment: REAL the pool-balls-real folder (its train split; default ../shared/datasets/...),
# OUT where the weights, the summary and the log go (default /tmp/detector-out), PY the Python that
# holds torch (default python3), WHEELS a folder of wheels to install first (what the machine lacks:
# ultralytics, ultralytics-thop, pymunk, cffi, pycparser for a Python 3.12 image).
#
# Why a script and not the plain recipe: such a machine has the project's files but not the project
# installed, so the stages are copied into a package folder on PYTHONPATH, as an install lays them out.
set -u
LOOKS=${1:-160}; BUDGET=${2:-510}; JOBS=${3:-16}; DEV=${4:-0}
HERE=$(cd "$(dirname "$0")/.." && pwd)
REAL=${REAL:-$HERE/../shared/datasets/pool-balls-real}
OUT=${OUT:-/tmp/detector-out}; mkdir -p "$OUT"
PY=${PY:-python3}
exec > >(tee "$OUT/log.txt") 2>&1
cd "$HERE" || exit 2
if [ -n "${WHEELS:-}" ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$WHEELS"/*.whl || exit 3
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
PKG=$(mktemp -d); mkdir -p "$PKG/tableref" && cp tableref/*.py "$PKG/tableref/"
for d in calibration vision referee api simulator; do cp -r $d "$PKG/tableref/$d"; done
export PYTHONPATH=$PKG:${PYTHONPATH:-} YOLO_CONFIG_DIR=$PKG/ycfg PYTHONUNBUFFERED=1
nvidia-smi -L 2>/dev/null; nproc
$PY -c "import torch, ultralytics; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'ultralytics', ultralytics.__version__)"
DATA=$PKG/data RUNS=$PKG/runs
$PY scripts/build_dataset.py --out "$DATA" --real "$REAL" --train-looks "$LOOKS" --jobs "$JOBS" | tail -40
echo "dataset built at ${SECONDS}s"
LEFT=$(( BUDGET - SECONDS - 100 )); [ $LEFT -lt 60 ] && LEFT=60
HOURS=$($PY -c "print(round($LEFT / 3600, 4))")
echo "training budget ${LEFT}s (hours $HOURS)"
# the run's figures and best weights so far, in case the machine is taken back before the end
(while sleep 15; do cp "$RUNS/gpu/results.csv" "$RUNS/gpu/weights/best.pt" "$OUT/" 2>/dev/null; done) &
$PY scripts/train_detector.py --data "$DATA" --device "$DEV" --workers $(( JOBS > 2 ? JOBS - 2 : 1 )) \
  --cache ram --batch 64 --epochs 60 --hours "$HOURS" --imgsz 384 --input-size 768 --lr0 0.003 \
  --close-mosaic 8 --seed 0 --project "$RUNS" --name gpu --out "$OUT/tableref-balls.onnx" 2>&1 \
  | grep -v "^\s*$" | tail -80
kill %1 2>/dev/null
cp "$RUNS/gpu/results.csv" "$RUNS/gpu/weights/best.pt" "$RUNS/gpu/args.yaml" "$DATA/manifest.json" "$OUT/" 2>/dev/null
echo "done at ${SECONDS}s"; ls -la "$OUT"
