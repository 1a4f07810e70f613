# Source: https://github.com/umami-hep/salt/blob/68bd045831b1ff2748f9cf86c0e0a406cba45f50/salt/data/datasets.py (copied unchanged below this line)
import operator
import os
import time
import warnings
from collections.abc import Callable, Iterable
from contextlib import suppress
from copy import deepcopy
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import torch
from filelock import FileLock, Timeout
from ftag import Cuts, Labeller
from ftag.track_selector import TrackSelector
from ftag.vds import create_virtual_file
from numpy.lib.recfunctions import append_fields
from numpy.lib.recfunctions import structured_to_unstructured as s2u
from torch.utils.data import Dataset

from salt.stypes import Vars
from salt.utils.array_utils import maybe_copy
from salt.utils.configs import LabellerConfig, MaskformerConfig, MaskformerObjectConfig
from salt.utils.inputs import as_half
from salt.utils.mask_utils import build_target_masks

# Disable HDF5 file locking (errno 524 on Lustre/GPFS) before any h5py open.
os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")

# Define the available operators
OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


def _select_objects(batch: np.ndarray, obj_config: MaskformerObjectConfig) -> np.ndarray:
    """Apply per-jet cuts, sort, PV-pin, and truncation to the objects array.

    The selection has four phases applied per-jet:

    1. **Cuts** — vertices failing any :attr:`MaskformerObjectConfig.cuts`
       entry are dropped. NaN values fail (strict). PV is exempt.
    2. **PV pin** — vertices whose ``class_label`` raw value maps to
       ``pv_class`` are placed at slot 0 (in the order they appeared in
       the HDF5 file).
    3. **Sort** — surviving non-PV vertices are sorted by
       :attr:`MaskformerObjectConfig.sort_by` (default descending).
    4. **Truncate** — only the first ``max_objects`` survivors are kept.

    Pad slots in the output have ``valid=False``, ``id_label=-1``, and
    ``class_label`` set to the raw null value, so downstream code
    (:func:`build_target_masks`, :meth:`SaltDataset.process_labels`)
    treats them as invalid.

    Parameters
    ----------
    batch : np.ndarray
        Structured array of shape ``(n_jets, n_in)`` freshly read from
        HDF5.
    obj_config : MaskformerObjectConfig
        Object configuration carrying ``cuts``, ``sort_by``,
        ``sort_descending``, ``pv_class``, and ``max_objects``.

    Returns
    -------
    np.ndarray
        Structured array of the same dtype, shape ``(n_jets, n_out)``
        where ``n_out = max_objects`` if set, else ``n_in``.

    Raises
    ------
    KeyError
        If a configured cut/sort field is missing from the input dtype.
    """
    n_jets, n_in = batch.shape
    n_out = obj_config.max_objects if obj_config.max_objects is not None else n_in

    # Validate required fields exist in the structured array
    needed: set[str] = set()
    if obj_config.cuts:
        needed.update(c.field for c in obj_config.cuts)
    if obj_config.sort_by is not None:
        needed.add(obj_config.sort_by)
    if obj_config.class_label is not None and obj_config.pv_class is not None:
        needed.add(obj_config.class_label)
    missing = needed - set(batch.dtype.names)
    if missing:
        raise KeyError(
            f"Object selection requires fields {sorted(missing)} but batch "
            f"dtype has {batch.dtype.names}. Add the missing fields to "
            "data.variables.objects in the config."
        )

    # Build per-vertex 'survives cuts' mask, vectorised over (n_jets, n_in).
    # NaN in any cut field FAILS the cut.
    keep = np.ones((n_jets, n_in), dtype=bool)
    if obj_config.cuts:
        for cut in obj_config.cuts:
            vals = batch[cut.field]
            ok = np.ones_like(vals, dtype=bool)
            if np.issubdtype(vals.dtype, np.floating):
                ok &= ~np.isnan(vals)  # NaN fails
            if cut.min is not None:
                ok &= vals >= cut.min
            if cut.max is not None:
                ok &= vals <= cut.max
            keep &= ok

    # Padding slots from the file are not candidates
    has_valid = "valid" in batch.dtype.names
    if has_valid:
        keep &= batch["valid"].astype(bool)

    # PV identification (vectorised). PV is always pinned at slot 0 and
    # exempt from cuts/sorts.
    pv_raw = obj_config.pv_raw_values
    class_field = obj_config.class_label
    if pv_raw is not None and class_field is not None and class_field in batch.dtype.names:
        pv_mask = np.isin(batch[class_field], list(pv_raw))
        if has_valid:
            pv_mask &= batch["valid"].astype(bool)
    else:
        pv_mask = np.zeros((n_jets, n_in), dtype=bool)

    sort_field = obj_config.sort_by
    out = np.zeros((n_jets, n_out), dtype=batch.dtype)  # valid defaults to 0/False

    for j in range(n_jets):
        row = batch[j]
        is_pv_j = pv_mask[j]
        non_pv_keep_j = keep[j] & ~is_pv_j

        pv_idx = np.where(is_pv_j)[0]
        non_pv_idx = np.where(non_pv_keep_j)[0]

        if sort_field is not None and len(non_pv_idx) > 0:
            order = np.argsort(row[sort_field][non_pv_idx], kind="stable")
            if obj_config.sort_descending:
                order = order[::-1]
            non_pv_idx = non_pv_idx[order]

        chosen = np.concatenate([pv_idx, non_pv_idx])[:n_out]
        if len(chosen) > 0:
            out[j, : len(chosen)] = row[chosen]

    # Sentinel-fill pad slots so they don't collide with real IDs in
    # build_target_masks and so process_labels maps them cleanly to null.
    # No 'valid' field -> there is no clean way to infer pad slots, so leave
    # id/class fields untouched in that case.
    pad_mask = ~out["valid"].astype(bool) if has_valid else np.zeros((n_jets, n_out), dtype=bool)

    id_field = obj_config.id_label
    if id_field in out.dtype.names and pad_mask.any():
        out[id_field][pad_mask] = -1  # mask_utils.build_target_masks treats -1 as invalid

    null_raw = obj_config.null_raw_value
    if (
        class_field is not None
        and class_field in out.dtype.names
        and null_raw is not None
        and pad_mask.any()
    ):
        out[class_field][pad_mask] = null_raw

    return out


class SaltDataset(Dataset):
    """An efficient map-style dataset for loading data from an H5 file containing structured
    arrays.

    Parameters
    ----------
    filename : str | Path
        Input h5 filepath containing structured arrays
    norm_dict : str | Path
        Path to file containing normalisation parameters
    variables : Vars
        Input variables used in the forward pass for each input type
    stage : str
        Stage of the training process
    num : int, optional
        Number of input samples to use. If `-1`, use all input samples
    labeller_config : LabellerConfig | None, optional
        Configuration to apply relabelling on-the-fly for jet classification
    labels : Vars | None, optional
        List of required labels for each input type
    mf_config : MaskformerConfig | None, optional
        Config for Maskformer matching, by default None
    input_map : dict[str, str] | None, optional
        Map names to the corresponding dataset names in the input h5 file.
        If not provided, the input names will be used as the dataset names.
    vds_path : str | None, optional
        When using a wildcard as input h5 file, SaltDataset will create a VDS
        (virtual dataset) file. By default (None), this file will be created in a
        folder, which will be created exactly where the wildcard points to. For
        example, if the wildcard points to /path/to/somewhere/pp_train_*.h5, the
        following folder will be created: /path/to/somewhere/pp_train_vds/ and
        in there the file vds.h5. If the vds should be created somewhere else,
        set this option to the path where the h5 file will be created, e.g.
        /path/to/somewhere/my_personal_vds_folder/my_personal_vds.h5
    num_inputs : dict | None, optional
        Truncate the number of constituent inputs to this number, to speed up training
    non_finite_to_num : bool, optional
        Convert nans and infs to zeros when loading inputs
    global_object : str, optional
        Name of the global input object, as opposed to the constituent-level
        inputs
    parameters : dict | None, optional
        Variables used to parameterise the network, by default None.
    selections : dict[str, list[str]] | None, optional
        Selections to apply to the input data, by default None.
    ignore_finite_checks : bool, optional
        Ignoring check for non-finite inputs.
    recover_malformed : bool, optional
        Converts to invalid tracks from malformed inputs in truthOriginLabel.
    transforms : list[Callable] | None, optional
        Transformations to apply to the data, by default None.
    multi_target: list[dict] | None, optional
        Config flag to allow multi target based on condition set, by default None.

    Raises
    ------
    FileNotFoundError
        If no file could be found that matches the given wildcard in filename.
    PermissionError
        If no permission are given to create the VDS file
    ValueError
        if use_labeller is set to true but the classes for relabelling are not supplied.
    """

    def __init__(
        self,
        filename: str | Path,
        norm_dict: str | Path,
        variables: Vars,
        stage: str,
        num: int = -1,
        labeller_config: LabellerConfig | None = None,
        labels: Vars | None = None,
        mf_config: MaskformerConfig | None = None,
        input_map: dict[str, str] | None = None,
        vds_path: str | None = None,
        num_inputs: dict | None = None,
        non_finite_to_num: bool = False,
        global_object: str = "jets",
        parameters: dict | None = None,
        selections: dict[str, list[str]] | None = None,
        ignore_finite_checks: bool = False,
        recover_malformed: bool = False,
        transforms: list[Callable] | None = None,
        multi_target: list[dict] | None = None,
    ):
        super().__init__()
        # check labels have been configured
        self.labels = labels if labels is not None else {}

        # default input mapping: use input names as dataset names
        # allow only partial maps to be provided
        if input_map is None:
            input_map = {k: k for k in variables}

        if "global" in input_map:
            input_map["global"] = global_object

        if "parameters" in input_map:
            input_map["parameters"] = global_object

        # remove any key that starts with an underscore
        self.input_map = {k: v for k, v in input_map.items() if not k.startswith("_")}

        # Define the dataset that will be used
        self.filename = Path(filename)

        if self._has_wildcard(self.filename):
            # Check that the wildcard matches at least one file
            matches = list(self.filename.parent.glob(self.filename.name))
            if not matches:
                raise FileNotFoundError(f"No files match wildcard: {self.filename}")

            if vds_path is None:
                # Replace the wildcard marker with "vds"
                vds_name = self.filename.name.replace("*", "vds")

                # Get the path of the new folder for the vds
                vds_dir = self.filename.parent / vds_name.strip(".h5")

                # Try to create the new folder/file.
                try:
                    vds_dir.mkdir(parents=True, exist_ok=True)
                except PermissionError as err:
                    raise PermissionError(
                        f"No permissions to create a VDS folder/file in {vds_dir}. "
                        "Please use the custom vds_path option."
                    ) from err

                out_fname = vds_dir / "vds.h5"
            else:
                out_fname = Path(vds_path)
                out_fname.parent.mkdir(parents=True, exist_ok=True)

            vds_out_path = self._create_vds_locked(
                pattern=self.filename,
                out_fname=out_fname,
            )

            # Set the file to the new VDS file
            self.filename = vds_out_path

        self._h5: h5py.File | None = None
        self._pid: int | None = None

        self.num_inputs = num_inputs
        self.non_finite_to_num = non_finite_to_num
        self.global_object = global_object
        self.selections = selections
        self.selectors = {}
        self.transforms = transforms
        if self.selections:
            for key, value in self.selections.items():
                self.selectors[key] = TrackSelector(Cuts.from_list(value))

        # If MaskFormer matching is enabled, extract the relevent labels
        self.mf_config = deepcopy(mf_config)
        if self.mf_config:
            self.input_map["objects"] = self.mf_config.object.name

        self.variables = variables
        self.norm_dict = norm_dict
        self.parameters = parameters
        self.stage = stage
        self.labeller_config = labeller_config
        if labeller_config and labeller_config.use_labeller:
            self.labeller = Labeller(labeller_config.class_names, labeller_config.require_labels)
        else:
            self.labeller = None
        self.rng = np.random.default_rng()

        # check that num_inputs contains valid keys
        if self.num_inputs is not None and not set(self.num_inputs).issubset(self.variables):
            raise ValueError(
                f"num_inputs keys {self.num_inputs.keys()} must be a subset of input variables"
                f" {self.variables.keys()}"
            )

        self.check_file()

        self.input_variables = variables
        assert self.input_variables is not None

        # check parameters listed in variables appear in the same order in the parameters block
        if "parameters" in self.input_variables:
            assert self.parameters is not None
            assert self.input_variables["parameters"] is not None
            assert len(self.input_variables["parameters"]) == len(self.parameters)
            for idx, param_key in enumerate(self.parameters.keys()):
                assert self.input_variables["parameters"][idx] == param_key

        # set number of objects
        self.num = self.get_num(num)
        self.ignore_finite_checks = ignore_finite_checks
        self.recover_malformed = recover_malformed

        self._is_setup = False
        self.multi_target = multi_target or []
        for entry in self.multi_target:
            if "target" in entry and "custom_target" in entry:
                raise ValueError(
                    "multi_target entry cannot define both 'target' and 'custom_target'; "
                    "use 'target' to replace an existing label or 'custom_target' to create "
                    f"a new one. Got: {entry}"
                )
            if "target" not in entry and "custom_target" not in entry:
                raise ValueError(
                    "multi_target entry must define either 'target' or 'custom_target'. "
                    f"Got: {entry}"
                )

    @staticmethod
    def _has_wildcard(path: Path) -> bool:
        """Check whether a path contains glob-style wildcard characters.

        Parameters
        ----------
        path : Path
            Input path to inspect.

        Returns
        -------
        bool
            True if the filename contains wildcard characters (``*``, ``?``, or ``[``),
            otherwise False.
        """
        name = path.name
        return any(ch in name for ch in ("*", "?", "["))

    @staticmethod
    def _done_marker(vds_out: Path) -> Path:
        """Return the path to the VDS completion marker file.

        Parameters
        ----------
        vds_out : Path
            Path to the final VDS file.

        Returns
        -------
        Path
            Path to the corresponding ``.done`` marker file.
        """
        return vds_out.with_suffix(vds_out.suffix + ".done")

    def _create_vds_locked(self, pattern: Path, out_fname: Path) -> Path:
        """Create a VDS file in a multi-process safe way.

        This method serializes VDS creation across processes (and nodes)
        using a filesystem lock and a completion marker. It prevents
        concurrent writers from corrupting the output file.

        The procedure is:

        1. Acquire a file lock (``<out_fname>.lock``).
        2. Re-check whether a completion marker exists.
        3. Build the VDS into a temporary file.
        4. Atomically rename the temporary file to the final filename.
        5. Write a ``.done`` marker.

        Parameters
        ----------
        pattern : Path
            Glob-style pattern used to construct the VDS.
        out_fname : Path
            Target path for the VDS file.

        Returns
        -------
        Path
            Path to the final VDS file.

        Raises
        ------
        RuntimeError
            If acquiring the lock times out.
        """
        out_fname = Path(out_fname)
        out_fname.parent.mkdir(parents=True, exist_ok=True)

        lock_path = out_fname.with_suffix(out_fname.suffix + ".lock")
        done_path = self._done_marker(out_fname)

        # Fast path: already built
        if done_path.exists():
            return out_fname

        lock = FileLock(str(lock_path))

        try:
            lock.acquire(timeout=1800)
        except Timeout as exc:
            raise RuntimeError(f"Timeout waiting for VDS lock: {lock_path}") from exc

        try:
            # Re-check after acquiring lock
            if done_path.exists():
                return out_fname

            tmp_out = out_fname.with_name(out_fname.name + f".tmp.{os.getpid()}")

            created_path = Path(
                create_virtual_file(
                    pattern=pattern,
                    out_fname=tmp_out,
                )
            )

            # Ensure atomic publish from tmp_out
            if (
                created_path.resolve() != tmp_out.resolve()
                and created_path.exists()
                and not tmp_out.exists()
            ):
                created_path.replace(tmp_out)

            tmp_out.replace(out_fname)

            marker_tmp = done_path.with_name(done_path.name + f".tmp.{os.getpid()}")
            marker_tmp.write_text(f"ok pid={os.getpid()} time={time.time()}\n")
            marker_tmp.replace(done_path)

            return out_fname

        finally:
            with suppress(Exception):
                lock.release()

    def _ensure_open(self) -> None:
        """Ensure an HDF5 handle is opened for the current process.

        This guards against handle inheritance across processes (fork) and
        covers cases where the Dataset instance is re-used in a different
        process context.
        """
        pid = os.getpid()
        if self._h5 is None or self._pid != pid:
            # Close stale handle if valid
            if self._h5 is not None and self._h5.id.valid:
                self._h5.close()

            self._h5 = h5py.File(self.filename, "r", libver="latest")
            self._pid = pid

    def _setup(self):
        """Setup the dataset (lazy, per process/worker)."""
        self._ensure_open()

        # setup datasets and accessor arrays
        self.dss = {}
        self.arrays = {}
        assert self._h5 is not None
        file = self._h5

        for internal, external in self.input_map.items():
            self.dss[internal] = file[external]
            if (internal == external) and internal == self.global_object:
                this_vars = list(file[external].dtype.fields.keys())
            else:
                this_vars = self.labels[internal].copy() if internal in self.labels else []
                this_vars += self.input_variables.get(internal, [])
            dtype = get_dtype(file[external], this_vars)
            self.arrays[internal] = np.array(0, dtype=dtype)
        if self.global_object not in self.dss:
            self.dss[self.global_object] = file[self.global_object]

        self._is_setup = True

    def __len__(self):
        """Return the number of samples in the dataset.

        Returns
        -------
        int
            Number of samples in the dataset
        """
        return int(self.num)

    def _needs_object_selection(self) -> bool:
        """Whether ``_select_objects`` should run for the configured ``mf_config``.

        Returns
        -------
        bool
            ``True`` if any of ``cuts``, ``sort_by``, or ``max_objects`` is
            configured. ``False`` short-circuits the legacy fast path
            (no object selection).
        """
        if self.mf_config is None:
            return False
        obj = self.mf_config.object
        return obj.cuts is not None or obj.sort_by is not None or obj.max_objects is not None

    def __getitem__(
        self, object_idx: slice
    ) -> tuple[
        dict[str, torch.Tensor],
        dict[str, torch.Tensor],
        dict[str, dict[str, torch.Tensor]],
    ]:
        """Return one batch from the dataset.

        Parameters
        ----------
        object_idx : slice
            A Python slice selecting a contiguous batch of objects. Must have
            ``start`` and ``stop`` set (used to size reads).

        Returns
        -------
        tuple
            A tuple ``(inputs, pad_masks, labels)``:
            - **inputs** : dict[str, torch.Tensor]
            Mapping from input name to a tensor batch.
            - **pad_masks** : dict[str, torch.Tensor]
            Masks for padded entries (True = padded/invalid) per input that supports it.
            - **labels** : dict[str, dict[str, torch.Tensor]]
            Nested mapping ``labels[input_name][label_name] -> tensor``.

        Raises
        ------
        ValueError
            If non finite input values are found in the jets.
        """
        inputs: dict[str, torch.Tensor] = {}
        labels: dict[str, dict[str, torch.Tensor]] = {}
        pad_masks: dict[str, torch.Tensor] = {}

        # Some weird bug seem to occur due to hdf5 not being thread safe. The below ensures
        # that each worker has its own copy of the file to prevent
        if not self._is_setup:
            self._setup()
        # loop over input types
        for input_name in self.input_map:
            # load data (inputs + labels) for this input type
            batch = self.arrays[input_name]
            shape = (object_idx.stop - object_idx.start, *self.dss[input_name].shape[1:])
            batch.resize(shape, refcheck=False)
            self.dss[input_name].read_direct(batch, object_idx)

            # MaskFormer per-jet object selection (cuts, sort, PV-pin, truncate)
            if (
                input_name == "objects"
                and self.mf_config is not None
                and self._needs_object_selection()
            ):
                batch = _select_objects(batch, self.mf_config.object)

            # apply selections for constituent inputs
            if self.selectors and (selector := self.selectors.get(input_name)):
                batch = selector(batch)

            # truncate constituent inputs
            if self.num_inputs is not None and input_name in self.num_inputs:
                assert int(self.num_inputs[input_name]) <= batch.shape[1]
                batch = batch[:, : int(self.num_inputs[input_name])]

            # load parameters for this input type
            if input_name == "parameters":
                flat_array = s2u(batch[self.input_variables[input_name]], dtype=np.float32)

                # Ensure parameters is a dict here for mypy (and logic)
                assert self.parameters is not None, (
                    "self.parameters must be provided when using 'parameters' input"
                )
                params: dict[str, dict[str, Any]] = self.parameters

                for ind, param in enumerate(params):
                    if self.stage == "fit":
                        # assign random values to inputs with parameters not set to those in the
                        # train list, values are chosen at random from those in the train list
                        # according to probabilities if given, else with equal probability
                        try:
                            prob = params[param]["prob"]
                        except KeyError:
                            prob = None
                        mask = ~np.isin(flat_array[:, ind], params[param]["train"])
                        random = self.rng.choice(params[param]["train"], size=np.sum(mask), p=prob)
                        flat_array[mask, ind] = random

                    if self.stage == "test":
                        # assign parameter values for all objects passed in the 'test' option
                        test_arr = np.full(np.shape(flat_array)[0], params[param]["test"])
                        flat_array[:, ind] = test_arr

                inputs[input_name] = torch.from_numpy(flat_array)

            # load standard inputs for this input type
            elif self.input_variables.get(input_name):
                # Apply transforms while variable names are still accessible
                struct_array = batch[self.input_variables[input_name]]
                if self.transforms:
                    for transform in self.transforms:
                        struct_array = transform(struct_array, input_name)

                flat_array = s2u(struct_array, dtype=np.float32)

                if self.non_finite_to_num:
                    flat_array = np.nan_to_num(flat_array, posinf=0, neginf=0)
                inputs[input_name] = torch.from_numpy(maybe_copy(flat_array))

                # apply the input padding mask
                # "objects" is excluded because it carries MaskFormer per-jet
                # truth-vertex metadata (Lxy, pt, etc. used by _select_objects /
                # build_target_masks), not encoder input. If a pad_mask were
                # written for "objects" it would leak into the encoder's
                # concatenated mask via SaltModel.forward → Transformer.forward
                # (which builds `mask = cat(pad_mask.values())`) and produce a
                # shape mismatch against the concatenated input `x` (which only
                # contains init_net streams like tracks/flows). See exp 22 fix.
                if "valid" in batch.dtype.names and input_name not in {
                    "parameters",
                    self.global_object,
                    "global",
                    "objects",
                }:
                    pad_masks[input_name] = ~torch.from_numpy(batch["valid"]).bool()
                    inputs[input_name][pad_masks[input_name]] = 0

                # check inputs are finite
                if not torch.isfinite(inputs[input_name]).all():
                    if self.ignore_finite_checks:
                        warnings.warn(
                            f"Non-finite inputs for '{input_name}' in {self.filename.name}."
                            "But ignore finite flag is on, make sure this is intentional.",
                            stacklevel=2,
                        )
                    else:
                        raise ValueError(
                            f"Non-finite inputs for '{input_name}' in {self.filename.name}."
                        )

            # inject placeholders for any custom_target labels
            if any(
                entry.get("input_name") == input_name and "custom_target" in entry
                for entry in self.multi_target
            ):
                batch = self.inject_custom_target_placeholders(batch, input_name)

            # process labels for this input type
            self.process_labels(labels, batch, input_name)

        if self.mf_config:
            labels["objects"]["masks"] = build_target_masks(
                labels["objects"][self.mf_config.object.id_label],
                labels[self.mf_config.constituent.name][self.mf_config.constituent.id_label],
            )

        # apply multi target replacements if configured
        if self.multi_target:
            self.apply_multi_target_replacements(labels)

        return inputs, pad_masks, labels

    def get_num(self, num_requested: int):
        with h5py.File(self.filename, "r") as f:
            num_available = len(f[self.global_object])

        # not enough objects
        if num_requested > num_available:
            raise ValueError(
                f"Requested {num_requested:,} from {self.global_object}, but only"
                f" {num_available:,} are available in the file {self.filename.name}."
            )

        # use all objects
        if num_requested < 0:
            return num_available

        # use requested number of objects
        return num_requested

    def check_file(self):
        keys = {self.input_map[k] for k in self.variables if not k.startswith("_")}
        with h5py.File(self.filename, "r") as f:
            available = set(f.keys())
        if missing := keys - available - {"global", "parameters"}:
            raise KeyError(
                f"Input file '{self.filename.name}' does not contain keys {missing}."
                f" Available keys: {available}"
            )
        for k, v in self.variables.items():
            match k:
                case "parameters":
                    continue
                case "global":
                    k = self.global_object  # noqa: PLW2901
                case _:
                    if k.startswith("_"):
                        continue
            name = self.input_map[k]
            with h5py.File(self.filename, "r") as f:
                if not isinstance(f[name], h5py.Dataset):
                    raise KeyError(
                        f"The object '{name}' in file '{self.filename.name}' is not a dataset."
                    )
                if missing := set(v) - set(f[name].dtype.names):
                    raise KeyError(
                        f"Variables {missing} are missing from dataset '{name}' in input file"
                        f" '{self.filename.name}'."
                    )

    def process_labels(self, labels, batch, input_name):
        if (len(self.labels) != 0) and (input_name in self.labels):
            labels[input_name] = {}
            for label in self.labels[input_name]:
                if (
                    self.labeller_config
                    and self.labeller_config.use_labeller
                    and input_name == self.global_object
                    and label == "flavour_label"
                ):
                    labeller = self.labeller
                    with h5py.File(self.filename, "r") as f:
                        all_train_vars = list(f["jets"].dtype.fields.keys())
                    for var in labeller.variables:
                        if var not in all_train_vars:
                            raise ValueError("Not enough fields to apply labelling cuts.")
                    labels[input_name][label] = self.labeller_config.class_names
                    labels_on_the_fly = self.labeller.get_labels(batch)
                    labels_np = labels_on_the_fly
                else:
                    batch_labels = maybe_copy(batch[label])
                    labels_np = batch_labels
                if label == "ftagTruthOriginLabel" and len(np.unique(labels_np)) > 9:
                    labels_np = malformed_truthorigin_check(self, labels_np)
                dtype = torch.long if np.issubdtype(labels_np.dtype, np.integer) else None
                labels[input_name][label] = torch.as_tensor(labels_np, dtype=dtype)
                x = torch.as_tensor(labels_np, dtype=dtype)
                if (
                    input_name == "objects"
                    and self.mf_config
                    and label == self.mf_config.object.class_label
                ):
                    for k, v in self.mf_config.object.class_map.items():
                        for kk in k:
                            x[x == kk] = v
                    # Optional Lxy cut: re-label far-tracker vertices to null.
                    # Vertices with |Lxy| > max_lxy_mm cannot be reconstructed by the
                    # tracker and should not contribute classification or regression loss.
                    # NaN Lxy (legitimate on null slots) is safe: np.abs(nan) > thr is
                    # always False, so null slots are never accidentally re-labelled.
                    # NOTE: lxy_field must appear in data.variables.objects in the config.
                    if self.mf_config.object.max_lxy_mm is not None:
                        lxy_field = self.mf_config.object.lxy_field
                        lxy = maybe_copy(batch[lxy_field])
                        null_idx = self.mf_config.object.null_index
                        too_far = np.abs(lxy) > self.mf_config.object.max_lxy_mm
                        x[too_far] = null_idx
                labels[input_name]["object_class"] = x
                labels[input_name][label] = x
            return labels[input_name]
        return None

    def inject_custom_target_placeholders(self, batch: np.ndarray, input_name: str) -> np.ndarray:
        """
        Inject a new placeholder field into the structured array for any `custom_target`
        labels declared in the `multi_target` configuration.

        Parameters
        ----------
        batch : np.ndarray
            Structured numpy array of current batch input.
        input_name : str
            Name of the input type (e.g. 'jets').

        Returns
        -------
        np.ndarray
            Updated structured array with custom target placeholders added.

        Raises
        ------
        KeyError
            If the `source` field is not found in the batch.
        """
        seen = set()
        for entry in self.multi_target:
            if entry.get("input_name") != input_name:
                continue

            custom_target = entry.get("custom_target")
            source = entry.get("source")
            if not custom_target or custom_target in seen:
                continue  # skip entries that are not custom targets, or already injected

            if source not in batch.dtype.names:
                raise KeyError(
                    f"Source field '{source}' not found in batch for "
                    f"custom_target '{custom_target}'"
                )

            # Create the placeholder column (NaN-filled, same dtype as source)
            placeholder = np.full(batch.shape, np.nan, dtype=batch[source].dtype)

            # Append this field to the structured array
            batch = append_fields(batch, custom_target, placeholder, usemask=False)
            seen.add(custom_target)

        return batch

    def apply_multi_target_replacements(self, labels: dict[str, dict[str, torch.Tensor]]):
        """
        Apply conditional target replacements as defined in the multi_target config.

        Parameters
        ----------
        labels : dict[str, dict[str, torch.Tensor]]
            Nested dictionary containing labels for each input type.

        Raises
        ------
        KeyError
            If expected labels or inputs are not found in the labels dictionary.
        """
        for condition in self.multi_target:
            input_name = condition["input_name"]
            sel_label = condition["sel_label"]
            target_label = condition.get("target") or condition["custom_target"]
            source_label = condition["source"]
            value = condition["value"]
            opp = condition["opp"]

            if opp not in OPERATORS:
                raise KeyError(
                    f"Invalid operator: {opp}. Allowed operators are: {list(OPERATORS.keys())}"
                )

            operator_func = OPERATORS[opp]

            if input_name not in labels:
                raise KeyError(f"Input '{input_name}' not found in labels.")
            if sel_label not in labels[input_name]:
                raise KeyError(f"Selection label '{sel_label}' not found in '{input_name}' labels.")
            if target_label not in labels[input_name]:
                raise KeyError(f"Target label '{target_label}' not found in '{input_name}' labels.")
            if source_label not in labels[input_name]:
                raise KeyError(f"Source label '{source_label}' not found in '{input_name}' labels.")

            mask = operator_func(labels[input_name][sel_label], value)

            labels[input_name][target_label] = torch.where(
                mask,
                labels[input_name][source_label],
                labels[input_name][target_label],
            )


def get_dtype(ds: h5py.Dataset, variables: Iterable[str] | None = None) -> np.dtype:
    """Return a structured dtype based on an existing dataset and requested variables.

    Parameters
    ----------
    ds : h5py.Dataset
        Input dataset providing the source structured dtype (``ds.dtype``).
    variables : Iterable[str] | None, optional
        Variable names to include in the returned dtype. If ``None``, use
        ``ds.dtype.names``. If the dataset contains a ``"valid"`` field and
        it is not listed, it will be appended automatically.

    Returns
    -------
    numpy.dtype
        Structured dtype consisting of the requested fields. Each field's
        element dtype is converted via :func:`salt.utils.inputs.as_half`.
    """
    # Normalize to a concrete, mutable list
    if variables is None:
        variables_list: list[str] = list(ds.dtype.names or [])
    else:
        variables_list = list(variables)

    if "valid" in (ds.dtype.names or ()) and "valid" not in variables_list:
        variables_list.append("valid")

    variables_flat: list[str] = []
    for item in variables_list:
        if isinstance(item, list):
            variables_flat.extend(item)
        else:
            variables_flat.append(item)

    return np.dtype([(n, as_half(x)) for n, x in ds.dtype.descr if n in variables_flat])


def malformed_truthorigin_check(
    ds: Any,
    input_batch_label: np.ndarray,
) -> np.ndarray:
    """Check and optionally correct malformed ``truthOriginLabels`` in a batch.

    Parameters
    ----------
    ds : Any
        An object with a boolean attribute ``recover_malformed``.
        If ``True``, malformed labels are converted to ``-1``.
        If ``False``, a ``ValueError`` is raised.
    input_batch_label : np.ndarray
        Array of truth origin labels for the current batch.

    Returns
    -------
    np.ndarray
        Either the original labels or a corrected array with all
        invalid labels replaced by ``-1`` if ``ds.recover_malformed`` is ``True``.

    Raises
    ------
    ValueError
        If malformed labels are detected and ``ds.recover_malformed`` is ``False``.

    Notes
    -----
    Valid truth origin labels are assumed to be in the inclusive range
    ``[-1, 7]``. Any value outside this range is considered malformed.

    Examples
    --------
    >>> class Dummy:
    ...     recover_malformed = True
    >>> ds = Dummy()
    >>> labels = np.array([0, 1, 99, -5])
    >>> malformed_truthorigin_check(ds, labels)
    array([ 0,  1, -1, -1])
    """
    if ds.recover_malformed:
        warnings.warn(
            "Malformed truthOriginLabels found with values and counts: "
            f"{np.unique(input_batch_label, return_counts=True)}"
            "Recover flag is on, converting to invalid and continuing."
            "You may still want to check these tracks.",
            stacklevel=2,
        )
        return np.where(
            (input_batch_label > 7) | (input_batch_label < -1),
            -1,
            input_batch_label,
        )
    raise ValueError(
        "Malformed truthOriginLabels found with values and counts: "
        f"{np.unique(input_batch_label, return_counts=True)}"
        "Recover flag is off, failing."
    )
